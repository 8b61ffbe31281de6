/** SPEC 9: ID card masking keeps the first 5 and last 5 characters. */
export function maskIdCard(idCard: string): string {
  const value = idCard.trim().toUpperCase()
  if (value.length <= 10) return '*'.repeat(value.length)
  return `${value.slice(0, 5)}${'*'.repeat(value.length - 10)}${value.slice(-5)}`
}

/** SPEC 9: phone masking keeps the first 3 and last 4 digits (used in logs, never for the owner). */
export function maskMobile(mobile: string): string {
  return mobile.length === 11 ? `${mobile.slice(0, 3)}****${mobile.slice(7)}` : '***'
}
