/** SPEC 7: '2.4.8' → '002004008' (each part padded to 3 digits), sent as the versionCode query. */
export function versionCode(version: string): string {
  return version
    .split('.')
    .map((part) => part.replace(/\D/g, '').padStart(3, '0'))
    .join('')
}
