/** What the layers above (routes, jobs, the console, the composition root) use of apps/. */
export { AppInstallService, APP_INSTALL_JOB } from './app-installs'
export { AppLibraryService, type AppItem } from './app-library'
