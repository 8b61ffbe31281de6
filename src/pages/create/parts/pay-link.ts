/**
 * The address a big-user payment link is shared as: on H5 the full address of this site, in the
 * mini-program the page path (opened from a mini-program card or a QR code).
 */
export function shareablePayLink(payLink: string): string {
  if (process.env.TARO_ENV === 'h5' && typeof window !== 'undefined') {
    return `${window.location.origin}${payLink}`
  }
  return payLink
}
