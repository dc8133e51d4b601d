// The test kit's kernel (core/testing), kept importable from here for the tests written before it moved.
export { startTestKernel, textOf, type TestKernel, type TestKernelOptions } from '../../server/testing/test-kernel.js';
