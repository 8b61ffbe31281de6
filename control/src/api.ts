/** The page's calls to our server, each answered in the API's envelope ({ code, msg, data }). */
import type { ControlCommand, ControlKey } from '#domain/control-page'
import type { StreamKeys } from './sdk'

export interface Envelope<T> {
  code: number
  msg: string
  data?: T
}

export interface PhoneState {
  name: string
  status: number
  statusName: string
  busy: boolean
  busyText?: string | null
  screenUrl: string | null
}

export class ControlApi {
  constructor(
    private readonly base: string,
    private readonly session: string,
  ) {}

  private async call<T>(path: string, init?: RequestInit): Promise<Envelope<T>> {
    const res = await fetch(this.base + path, init)
    return (await res.json()) as Envelope<T>
  }

  private post<T>(path: string, body: Record<string, unknown>) {
    return this.call<T>(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ session: this.session, ...body }),
    })
  }

  state(withScreen: boolean) {
    const q = `?session=${encodeURIComponent(this.session)}${withScreen ? '' : '&screen=0'}`
    return this.call<PhoneState>(`/control/state${q}`)
  }

  command(command: ControlCommand) {
    return this.post<{ msg: string }>('/control/command', { command })
  }

  key(key: ControlKey) {
    return this.post<{ msg: string }>('/control/key', { key })
  }

  streamKeys() {
    return this.call<StreamKeys>(`/control/stream?session=${encodeURIComponent(this.session)}`)
  }
}
