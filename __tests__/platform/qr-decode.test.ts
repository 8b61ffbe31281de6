import { TextEncoder } from 'util'
import { decodePixels } from '@/platform/qr-decode.h5'
import { parseScanCode, scanPayload } from '@/domain/scan-codes'

/** Renders a real QR (the qrcode package's module matrix) into RGBA pixels, as a canvas would hold it. */
// jsdom has no TextEncoder, which qrcode needs to encode the text
Object.assign(globalThis, { TextEncoder })
const QRCode = jest.requireActual<typeof import('qrcode')>('qrcode')

function qrPixels(text: string, scale = 4, margin = 2) {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' })
  const size = (modules.size + margin * 2) * scale
  const data = new Uint8ClampedArray(size * size * 4).fill(255)
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const mx = Math.floor(x / scale) - margin
      const my = Math.floor(y / scale) - margin
      const dark =
        mx >= 0 && my >= 0 && mx < modules.size && my < modules.size && modules.get(my, mx)
      if (dark) data.fill(0, (y * size + x) * 4, (y * size + x) * 4 + 3)
    }
  }
  return { data, width: size, height: size }
}

describe('decodePixels', () => {
  it('reads the text of a generated login QR', () => {
    const text = scanPayload('login', 'c3'.repeat(32))
    const decoded = decodePixels(qrPixels(text))
    expect(decoded).toBe(text)
    expect(parseScanCode(decoded)).toEqual({ kind: 'login', code: 'c3'.repeat(32) })
  })

  it('reads a share QR and a bare activation code', () => {
    expect(decodePixels(qrPixels('cloudphone:share:Ab_9-xYz12345678'))).toBe(
      'cloudphone:share:Ab_9-xYz12345678',
    )
    expect(decodePixels(qrPixels('ABCD-EFGH-JKMN-PQRS', 3))).toBe('ABCD-EFGH-JKMN-PQRS')
  })

  it('answers null for pixels without a QR', () => {
    const blank = { data: new Uint8ClampedArray(100 * 100 * 4).fill(255), width: 100, height: 100 }
    expect(decodePixels(blank)).toBeNull()
  })
})
