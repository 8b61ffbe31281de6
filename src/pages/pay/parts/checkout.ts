/** H5: the provider's checkout page replaces the app; it sends the buyer back to the return URL. */
export function openCheckout(checkoutUrl: string): void {
  window.location.href = checkoutUrl
}
