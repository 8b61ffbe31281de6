/**
 * QR decoding in the browser (H5 only; jsqr never reaches the mini-program): camera frames and picked
 * images are drawn into a canvas and read with jsqr. Loaded with a dynamic import from the scan page.
 */
import Taro from '@tarojs/taro'
import jsQR from 'jsqr'

export interface Pixels {
  data: Uint8ClampedArray
  width: number
  height: number
}

/** The text of the QR in these RGBA pixels, or null when none is found. */
export function decodePixels(pixels: Pixels): string | null {
  const found = jsQR(pixels.data, pixels.width, pixels.height, { inversionAttempts: 'attemptBoth' })
  return found ? found.data : null
}

/** Draws a video frame or an image into the canvas (scaled to at most 800 px) and decodes it. */
export function decodeDrawable(
  source: CanvasImageSource,
  width: number,
  height: number,
  canvas: HTMLCanvasElement = document.createElement('canvas'),
): string | null {
  if (!width || !height) return null
  const scale = Math.min(1, 800 / Math.max(width, height))
  canvas.width = Math.round(width * scale)
  canvas.height = Math.round(height * scale)
  const context = canvas.getContext('2d', { willReadFrequently: true })
  if (!context) return null
  context.drawImage(source, 0, 0, canvas.width, canvas.height)
  return decodePixels(context.getImageData(0, 0, canvas.width, canvas.height))
}

/** Loads an image URL (a picked file's blob URL) and decodes it. */
export function decodeImageUrl(src: string): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const image = new Image()
    image.onload = () => resolve(decodeDrawable(image, image.naturalWidth, image.naturalHeight))
    image.onerror = () => reject(new Error('图片读取失败，请换一张图片'))
    image.src = src
  })
}

/** Lets the user take or pick a photo and decodes it; null when it holds no QR. */
export async function pickAndDecodeImage(): Promise<string | null> {
  const picked = await Taro.chooseImage({ count: 1, sourceType: ['album', 'camera'] })
  return decodeImageUrl(picked.tempFilePaths[0])
}
