import { hash, verify } from '@node-rs/argon2'

/** argon2id (algorithm 2 in @node-rs/argon2) with OWASP's 19 MiB / t=2 baseline. */
const OPTIONS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const

export const hashPassword = (password: string) => hash(password, OPTIONS)

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password)
  } catch {
    return false
  }
}
