import {
  type RunningEmulator,
  type StartEmulatorOptions,
  startEmulator,
} from '@catalogkit/emulator';
import { afterEach } from 'vitest';

const running: RunningEmulator[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((emulator) => emulator.close()));
});

/** An emulator on a free loopback port, closed after the test. */
export async function start(options: StartEmulatorOptions = {}): Promise<RunningEmulator> {
  const emulator = await startEmulator(options);
  running.push(emulator);
  return emulator;
}
