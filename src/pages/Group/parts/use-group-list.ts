/** My groups with counts, for Group/index and MoveGroup; a failed load is shown as a toast. */
import { useState } from 'react'
import { toastError } from '@/runtime/feedback'
import { listGroups, type GroupList } from '@/api/group'

export function useGroupList() {
  const [list, setList] = useState<GroupList | null>(null)
  const load = async () => {
    try {
      setList(await listGroups())
    } catch (error) {
      toastError(error)
    }
  }
  return { list, load }
}
