/** 120 → '2小时', 90 → '90分钟', 2880 → '2天'. */
export function trialDurationText(minutes: number): string {
  if (minutes >= 1440 && minutes % 1440 === 0) return `${minutes / 1440}天`
  if (minutes >= 60 && minutes % 60 === 0) return `${minutes / 60}小时`
  return `${minutes}分钟`
}
