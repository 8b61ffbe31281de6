/** What the layers above (routes, jobs, the console, the composition root) use of apps/. */
export { AppLibraryService, type AppItem } from './app-library'
