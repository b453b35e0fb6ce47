import { fileURLToPath } from 'node:url';
import { demoCommandSuite } from '@catalogkit/example-shared/testing';

demoCommandSuite({
  packageDir: fileURLToPath(new URL('..', import.meta.url)),
  framework: 'LangChain',
});
