/** H5's APK picker: a hidden file input, read as a blob: URL for Taro's upload (platform.chooseApk). */
export function chooseApkFile(): Promise<{ path: string; name: string; size: number }> {
  return new Promise((resolve, reject) => {
    const input = document.createElement('input')
    input.type = 'file'
    input.accept = '.apk,application/vnd.android.package-archive'
    input.hidden = true
    document.body.appendChild(input)
    const done = () => input.remove()
    input.addEventListener('change', () => {
      const file = input.files?.[0]
      done()
      if (!file) reject(new Error('chooseApk:fail cancel'))
      else resolve({ path: URL.createObjectURL(file), name: file.name, size: file.size })
    })
    input.addEventListener('cancel', () => {
      done()
      reject(new Error('chooseApk:fail cancel'))
    })
    input.click()
  })
}
