/** NutUI's Button says it is disabled by its class (and then ignores taps), not by a `disabled` attribute. */
export const isDisabled = (button: HTMLElement) => button.classList.contains('nut-button-disabled')
