import { Image, type ImageProps } from '@tarojs/components'

/**
 * Taro's Image with a text alternative: on H5 it becomes the inner <img>'s alt (Taro's Image has no
 * alt prop; nativeProps is its way through), '' for a decorative picture screen readers skip.
 */
export default function Picture({ alt, ...props }: ImageProps & { alt: string }) {
  return <Image {...props} nativeProps={{ alt }} />
}
