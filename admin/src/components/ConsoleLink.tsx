import type { ReactNode } from 'react'
import { navigate } from '../router'

/**
 * A link inside the console (history routing, no page load). `inText`: inside a sentence, underlined, as
 * colour alone does not tell it from the words around it (axe's link-in-text-block).
 */
export default function ConsoleLink({
  to,
  children,
  inText = false,
}: {
  to: string
  children: ReactNode
  inText?: boolean
}) {
  return (
    <a
      href={to}
      style={inText ? { textDecoration: 'underline' } : undefined}
      onClick={(event) => {
        event.preventDefault()
        navigate(to)
      }}
    >
      {children}
    </a>
  )
}
