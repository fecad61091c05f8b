// The engine threads' entry when the app runs from its TypeScript sources (npm start, serve and
// worker run under tsx; the tests under vitest): Node 20 applies no loader given to a Worker in
// its execArgv (nodejs/node#47747), so the thread registers tsx itself. The engines load with the
// first task, not here: a thread that failed while starting would leave its tasks waiting (piscina
// fails only the tasks a thread has taken), one that fails in a task fails that task.
import { register } from 'node:module';
import { register as registerTsx } from 'tsx/esm/api';

registerTsx();
// Registered last, asked first: the dependencies' ES modules skip tsx (engine-thread-dependencies.mjs).
register('./engine-thread-dependencies.mjs', import.meta.url);
let engineThread;

export default async function runTask(task) {
  engineThread ??= import('./engine-thread.ts').then((module) => module.default);
  return (await engineThread)(task);
}
