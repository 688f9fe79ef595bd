export {
  type ConsoleOptions,
  type ConsoleRoutes,
  createConsoleApp,
  mountConsole,
} from './create-console-app';
export { STATIC_DIR } from './static-files';
