/**
 * A supplier's app installs (应用管理, docs/apps.md): one app onto many instances, each install a task
 * of the supplier's followed until it ends, an instance's installed apps and launching one. A supplier
 * without it (SupplierAdapter.apps undefined) installs nothing: each phone's result says so.
 */

/** The app as a supplier is handed it: read from the APK when the library took it in. */
export interface AppForInstall {
  appId: number
  packageName: string
  name: string
  versionCode: number
  versionName: string
  /** The native code ABIs the APK carries (lib/<abi>/…); empty: none, it runs on any. */
  abis: string[]
  /** Its bytes, for a supplier that is given the file (read only when it is needed). */
  read(): Promise<Buffer>
}

/** An instance's answer to an install: the supplier's task, or why it refused at once. */
export type InstallAccepted = { ok: true; task: string } | { ok: false; reason: string }

export type InstallTaskState =
  { status: 'installing' } | { status: 'installed' } | { status: 'failed'; reason: string }

export interface InstalledApp {
  packageName: string
  /** The app's name where the supplier knows it, else the package name. */
  name: string
  versionName: string | null
}

export interface AppInstaller {
  /** The most instances one install call may name (its API's batch size). */
  readonly batchSize: number
  /** Starts installing `app` on each instance (at most batchSize): one answer per distinct id. */
  install(instanceIds: string[], app: AppForInstall): Promise<Map<string, InstallAccepted>>
  /** Where each task is now, by task (an unknown task: failed). */
  taskStates(tasks: { instanceId: string; task: string }[]): Promise<Map<string, InstallTaskState>>
  /** The apps on an instance now. */
  installed(instanceId: string): Promise<InstalledApp[]>
  /** Opens an installed app on the instance's screen; throws with the reason when it cannot. */
  launch(instanceId: string, packageName: string): Promise<void>
}
