/** What the layers above (routes, jobs, the console, the composition root) use of space/. */
export { SpaceBackupService } from './space-backups'
export { SpaceService } from './space-service'
export { SPACE_TASK_JOB, SpaceTaskService } from './space-task-runner'
