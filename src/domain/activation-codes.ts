/**
 * Activation codes: 16 characters of an alphabet without 0/O/1/I/L, shown in groups of four. People paste
 * them with spaces, dashes and any case, so every reader (the activate form, the QR scan, the server)
 * compares them normalised the same way.
 */
export const ACTIVATION_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789'
export const ACTIVATION_CODE_LENGTH = 16
/** A normalised code the server could have issued. */
export const ACTIVATION_CODE_PATTERN = new RegExp(
  `^[${ACTIVATION_CODE_ALPHABET}]{${ACTIVATION_CODE_LENGTH}}$`,
)

export const normaliseActivationCode = (value: string) => value.replace(/[\s-]/g, '').toUpperCase()

/** The activate form's check: 16 letters or digits once normalised (the server then looks the code up). */
export function validateActivationCode(value: string): string | null {
  const code = normaliseActivationCode(value)
  if (!code) return '请输入激活码'
  return /^[A-Z0-9]{16}$/.test(code) ? null : '激活码为16位字母或数字'
}
