import { startSandbox, type Sandbox, type SandboxOptions } from '../sandbox/server';

/**
 * Starts one sandbox for the test file (beforeAll), closes it afterwards (afterAll) and resets it
 * before each test, handing the started sandbox to `use`: `let sandbox: Sandbox; useSandbox((s) => (sandbox = s));`
 */
export function useSandbox(use: (sandbox: Sandbox) => void, options?: SandboxOptions): void {
	let sandbox: Sandbox | undefined;
	beforeAll(async () => {
		sandbox = await startSandbox(options);
		use(sandbox);
	});
	afterAll(async () => await sandbox?.close());
	beforeEach(() => sandbox?.reset());
}
