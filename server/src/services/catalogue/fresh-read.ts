/**
 * A read shared by the calls that arrive together, never older than any of them: a call that finds a
 * read under way (which may have begun before the call arrived) waits for the next one, which every
 * call arriving meanwhile shares. However many calls arrive at once, at most two reads run back to
 * back. Written here because what the caching libraries offer (memoising an in-flight promise) hands a
 * late caller a read begun before it.
 */
export class FreshRead<T> {
  private running: Promise<T> | null = null
  private next: Promise<T> | null = null

  constructor(private readonly read: () => Promise<T>) {}

  get(): Promise<T> {
    if (!this.running) return this.start()
    this.next ??= this.running.then(this.startNext, this.startNext)
    return this.next
  }

  private readonly startNext = () => {
    this.next = null
    return this.start()
  }

  private start(): Promise<T> {
    const reading = this.read()
    this.running = reading
    const done = () => {
      if (this.running === reading) this.running = null
    }
    reading.then(done, done)
    return reading
  }
}
