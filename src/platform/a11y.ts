// Accessibility props that differ between the H5 build and the mini-program.
/**
 * NutUI's Switch marks itself with `ariaRole`, which Taro writes as the mini-program's `aria-role`
 * attribute. Browsers know only `role`, so on H5 the role goes there instead (and the invalid
 * attribute is dropped); the mini-program keeps NutUI's own.
 */
export function ariaRole(role: 'switch'): Record<string, unknown> {
  return process.env.TARO_ENV === 'h5' ? { role, ariaRole: undefined } : {}
}

/**
 * Props for a region that scrolls on its own (a list, a row of tabs): a tab stop, so keyboard users
 * can scroll it (H5; Taro's View has no typed tabIndex, the browser element takes it).
 */
export const KEYBOARD_SCROLLABLE: Record<string, unknown> = { tabIndex: 0 }
