import { fileURLToPath } from 'node:url';
import { demoCommandSuite } from '@catalogkit/example-demo-support/testing';

demoCommandSuite({
  packageDir: fileURLToPath(new URL('..', import.meta.url)),
  framework: 'Vercel AI SDK',
});
