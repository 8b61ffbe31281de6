/** Sign-in attempts allowed per IP per minute, and per name from one IP per 15 minutes. */
export interface SignInLimits {
  perIpPerMinute: number
  perNameAndIpPer15Minutes: number
}

/** What every console route plugin is registered with (routes/index.ts). */
export interface ConsoleApiOptions {
  /** The session cookie is Secure (production: the console is served over HTTPS). */
  secureCookie: boolean
  /** null: no limit (tests). */
  signInLimits: SignInLimits | null
}
