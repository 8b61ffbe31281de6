import HomeEngagement from '@/components/NewUserGuide/HomeEngagement'
import Fleet from './fleet/Fleet'

/** What Home shows once signed in: the fleet, and the new-user guide and activity entry over it. */
export default function SignedInHome({ active }: { active: boolean }) {
  return (
    <>
      <Fleet active={active} />
      <HomeEngagement active={active} />
    </>
  )
}
