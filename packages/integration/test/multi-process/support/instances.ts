import { type ChildProcess, fork } from 'node:child_process';
import type { InstanceResult, InstanceTask } from './tasks.js';

/** An instance that does not start within this is a failure, not a hang. */
const START_TIMEOUT_MS = 30_000;
/** One task's own limit: each is bounded by its client's time limits well below this. */
const TASK_TIMEOUT_MS = 45_000;

/** How to start an instance: the bundled script and what it reads from its environment. */
export interface InstanceSetup {
  script: string;
  env: {
    REDIS_URL: string;
    API_KEY: string;
    APPROVAL_SECRET: string;
    /** The Redis store's time limit per command (ms); its default when absent. */
    STORE_TIMEOUT_MS?: string;
  };
}

function start({ script, env }: InstanceSetup, args: string[] = []): ChildProcess {
  const child = fork(script, args, {
    execArgv: [],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  // Each task in flight listens for its answer (and the exit): many at once by design.
  child.setMaxListeners(0);
  return child;
}

/** Rejects when `child` exits or `ms` pass first; `what` names it in the error. */
function untilMessage<T>(
  child: ChildProcess,
  accept: (message: unknown) => T | undefined,
  ms: number,
  what: string,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const done = (settle: () => void) => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      settle();
    };
    const onMessage = (message: unknown) => {
      const accepted = accept(message);
      if (accepted !== undefined) done(() => resolve(accepted));
    };
    const onExit = (code: number | null) =>
      done(() => reject(new Error(`${what}: instance ${child.pid} exited (${code})`)));
    const timer = setTimeout(
      () => done(() => reject(new Error(`${what}: no answer within ${ms} ms`))),
      ms,
    );
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

function resultOf(id: number) {
  return (message: unknown): InstanceResult | undefined => {
    const reply = message as { id?: number; result?: InstanceResult };
    return reply?.id === id ? reply.result : undefined;
  };
}

/** Waits for a child to exit, killing it if it does not within `ms`. */
function exited(child: ChildProcess, ms = 5_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** Long-lived instances (servers behind a load balancer), each running tasks concurrently. */
export class InstancePool {
  readonly #children: ChildProcess[];
  #nextId = 1;

  private constructor(children: ChildProcess[]) {
    this.#children = children;
  }

  /** Starts `count` instances and waits until each has connected to Redis. */
  static async start(count: number, setup: InstanceSetup): Promise<InstancePool> {
    const children = Array.from({ length: count }, () => start(setup));
    const pool = new InstancePool(children);
    try {
      await Promise.all(
        children.map((child) =>
          untilMessage(
            child,
            (message) => ((message as { ready?: boolean })?.ready ? true : undefined),
            START_TIMEOUT_MS,
            'start',
          ),
        ),
      );
    } catch (error) {
      await pool.close();
      throw error;
    }
    return pool;
  }

  get size(): number {
    return this.#children.length;
  }

  /** The process ids, to tell which instance ran a task. */
  get pids(): number[] {
    return this.#children.map((child) => child.pid ?? -1);
  }

  /** Runs `task` on instance `index` (modulo the pool's size). */
  run(index: number, task: InstanceTask): Promise<InstanceResult> {
    const child = this.#children[index % this.#children.length] as ChildProcess;
    const id = this.#nextId++;
    const result = untilMessage(child, resultOf(id), TASK_TIMEOUT_MS, task.kind);
    child.send({ id, task });
    return result;
  }

  async close(): Promise<void> {
    for (const child of this.#children) {
      if (child.connected) child.send('exit');
    }
    await Promise.all(this.#children.map((child) => exited(child)));
  }
}

/** A fresh process for one task, as a serverless invocation: it starts, runs it, exits. */
export async function runFresh(setup: InstanceSetup, task: InstanceTask): Promise<InstanceResult> {
  const child = start(setup, [JSON.stringify(task)]);
  try {
    return await untilMessage(child, resultOf(0), START_TIMEOUT_MS + TASK_TIMEOUT_MS, task.kind);
  } finally {
    await exited(child);
  }
}
