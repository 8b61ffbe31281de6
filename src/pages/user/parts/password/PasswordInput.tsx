import FormRow from '@/components/FormRow'

export interface PasswordInputProps {
  label: string
  placeholder: string
  value: string
  onChange: (value: string) => void
}

/** One labelled password row of the change/set-password forms (6–13 characters). */
export default function PasswordInput(props: PasswordInputProps) {
  return <FormRow type="password" maxLength={13} {...props} />
}
