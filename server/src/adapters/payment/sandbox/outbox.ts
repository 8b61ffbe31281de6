/**
 * The sandbox payment provider's outbox: each notification is signed and sent `delayMs` after the event,
 * without making the caller wait (the buyer's browser moves on). A send that fails is lost like a real
 * provider's failed delivery, and so is a notification still waiting when the process dies (kill -9
 * before the timer fires); reconciliation asks the provider's books instead.
 */
import type { SignedNotice } from './protocol'

/** Sends a signed notification to our callback (the routes plugin does it with app.inject); the HTTP status. */
export type SandboxDeliver = (path: string, body: string, signature: string) => Promise<number>

export class SandboxOutbox {
  private deliver: SandboxDeliver | null = null
  /** Notifications not yet sent, each with its send; the promise settles when it is sent or dropped. */
  private readonly pending = new Map<NodeJS.Timeout, { send: () => Promise<void> }>()
  private readonly inFlight = new Set<Promise<void>>()

  /** Where a failed send is reported (the routes plugin sets the app's logger). */
  onError: (error: unknown) => void = () => {}

  constructor(
    private readonly delayMs: number,
    private readonly sign: (fields: Record<string, unknown>) => SignedNotice,
  ) {}

  /** Where notifications go; until connected (or after close) none are sent. */
  connect(deliver: SandboxDeliver | null) {
    this.deliver = deliver
  }

  /** Signs the fields and sends them to `path` now; an answer other than 200 is a failed send. */
  async send(path: string, fields: Record<string, unknown>) {
    if (!this.deliver) return
    const { body, signature } = this.sign(fields)
    const status = await this.deliver(path, body, signature)
    if (status !== 200) throw new Error(`sandbox notification to ${path} answered ${status}`)
  }

  /** Runs `send` after the delay without making the caller wait. */
  later(send: () => Promise<void>): void {
    const timer = setTimeout(() => {
      this.pending.delete(timer)
      this.run(send)
    }, this.delayMs)
    this.pending.set(timer, { send })
  }

  private run(send: () => Promise<void>) {
    const sending = send().catch((error: unknown) => {
      // Lost like a real provider's failed delivery; reconciliation asks for the state instead.
      this.onError(error)
    })
    this.inFlight.add(sending)
    void sending.finally(() => this.inFlight.delete(sending))
  }

  /** Sends every notification now instead of after the delay (tests that order events by hand). */
  async flush(): Promise<void> {
    for (const [timer, { send }] of this.pending) {
      clearTimeout(timer)
      this.pending.delete(timer)
      this.run(send)
    }
    await this.settled()
  }

  /** Resolves once every scheduled notification has been sent (tests and shutdown wait on it). */
  async settled(): Promise<void> {
    while (this.pending.size > 0 || this.inFlight.size > 0) {
      if (this.inFlight.size > 0) await Promise.all([...this.inFlight])
      else await new Promise((resolve) => setTimeout(resolve, Math.min(this.delayMs, 50)))
    }
  }

  /** Drops notifications not yet sent (a shutdown, or a process dying) and waits for those being sent. */
  async close(): Promise<void> {
    for (const timer of this.pending.keys()) clearTimeout(timer)
    this.pending.clear()
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight])
  }
}
