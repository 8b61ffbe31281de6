import QRCode from 'qrcode'

/** A QR code of `text` as a PNG data URL (shown by an <Image> on both runtimes). */
export function qrDataUrl(text: string): Promise<string> {
  return QRCode.toDataURL(text, { margin: 1, width: 240, errorCorrectionLevel: 'M' })
}
