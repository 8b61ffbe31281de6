import { createHash, randomBytes, randomInt } from 'node:crypto'

export const sha256Hex = (value: string) => createHash('sha256').update(value).digest('hex')

/** Opaque bearer secret (tokens, tickets): 32 random bytes; only its SHA-256 is ever stored. */
export const newOpaqueSecret = () => randomBytes(32).toString('hex')

export const hashOpaqueSecret = (secret: string) => sha256Hex(`secret:${secret}`)

/** Hash an SMS code together with its number and purpose so a code for one use cannot match another. */
export const hashSmsCode = (mobilePhone: string, type: string, code: string) =>
  sha256Hex(`sms:${mobilePhone}:${type}:${code}`)

/** ID numbers are kept only as a hash (for the one-account-per-ID rule) plus the masked form. */
export const hashIdCard = (idCard: string) => sha256Hex(`idcard:${idCard.trim().toUpperCase()}`)

export const newSmsCode = (length = 6) =>
  Array.from({ length }, () => String(randomInt(0, 10))).join('')

const INVITE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789' // no 0/O/1/I: read aloud and typed by hand

export const newInviteCode = (length = 8) =>
  Array.from({ length }, () => INVITE_ALPHABET[randomInt(0, INVITE_ALPHABET.length)]).join('')
