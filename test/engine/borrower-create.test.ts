/**
 * Borrower › Create (POST {los}/api/borrowers) through n8n's engine against the sandbox, with the
 * fields of the service's create-borrower page (emails, name, type, phones, addresses, taxId, loanId,
 * role; no bio), and what becomes of a bio: a saved workflow's is removed by n8n when it loads
 * the workflow (never sent), a model's in Record (JSON) is an error naming it.
 */
import { join } from 'path';

import type { INodeProperties } from 'n8n-workflow';

import { expectInputError, expectRequest, operationRunner, useSandbox } from '../harness/fixtures';
import { packageRoot } from '../harness/package-root';
import type { Sandbox } from '../sandbox/server';

const { IntegrationService } = require(
	join(packageRoot(), 'dist/nodes/IntegrationService/IntegrationService.node.js'),
) as { IntegrationService: new () => { description: { properties: INodeProperties[] } } };
const properties = new IntegrationService().description.properties;

let sandbox: Sandbox;
useSandbox((started) => (sandbox = started));
const createBorrower = operationRunner(() => sandbox, 'borrower', 'create');

/** The option names of a field group shown for borrower › `operation`. */
function groupFields(operation: string, group: string): string[] {
	const property = properties.find(
		(one) =>
			one.name === group &&
			one.displayOptions?.show?.resource?.includes('borrower') === true &&
			one.displayOptions?.show?.operation?.includes(operation) === true,
	);
	// A list's "(JSON)" companion (emailsJson, …) stays beside its list: not a field of its own.
	return ((property?.options ?? []) as INodeProperties[])
		.map((option) => option.name)
		.filter((name) => !name.endsWith('Json'));
}

describe('borrower › create', () => {
	test('links the borrower to a loan: loanId and role reach the body, with the Connection ID', async () => {
		const result = await createBorrower({
			parameters: {
				credentialId: 'cred-other',
				additionalFields: {
					name: 'Jane Doe',
					loanId: 'loan-7',
					role: 'coBorrower',
					taxId: '123-45-6789',
				},
			},
		});
		expect(result.error).toBeUndefined();
		const body = { loanId: 'loan-7', name: 'Jane Doe', role: 'coBorrower', taxId: '123-45-6789' };
		expect(sandbox.requests).toHaveLength(1);
		expectRequest(sandbox, sandbox.requests[0], {
			host: 'los',
			method: 'POST',
			url: '/api/borrowers',
			credentialId: 'cred-other',
			body,
			status: 201,
		});
		expect(result.items).toEqual([
			{
				json: expect.objectContaining({ ...body, id: expect.any(String) }),
				pairedItem: { item: 0 },
			},
		]);
	});

	test('Map Automatically sends an input row’s loanId and role', async () => {
		const result = await createBorrower({
			parameters: { mappingMode: 'autoMapInputData' },
			items: [{ name: 'Bo', loanId: 'loan-7', role: 'primary', other: 'ignored' }],
		});
		expect(result.error).toBeUndefined();
		expect(sandbox.requests[0].body).toEqual({ loanId: 'loan-7', name: 'Bo', role: 'primary' });
	});

	test('offers the create page’s fields: no Bio; Update keeps Bio and offers no Loan ID or Role', () => {
		expect(groupFields('create', 'additionalFields').sort()).toEqual(
			['addresses', 'emails', 'loanId', 'name', 'phones', 'role', 'taxId', 'type'].sort(),
		);
		expect(groupFields('update', 'updateFields').sort()).toEqual(
			['addresses', 'bio', 'emails', 'name', 'phones', 'taxId', 'type'].sort(),
		);
	});

	test('a saved workflow’s Bio is removed by n8n on load, before the node runs: never sent', async () => {
		// n8n keeps only a collection's options when it loads a workflow (NodeHelpers.getNodeParameters
		// in the Workflow constructor): the node never sees the key, so it can neither send nor refuse it.
		const result = await createBorrower({
			parameters: { additionalFields: { name: 'Jane Doe', bio: '{"maritalStatus": "married"}' } },
		});
		expect(result.error).toBeUndefined();
		expect(sandbox.requests).toHaveLength(1);
		expect(sandbox.requests[0].body).toEqual({ name: 'Jane Doe' });
		expect(sandbox.requests[0].status).toBe(201);
	});

	test('Record (JSON) with a bio is an error naming it; nothing is sent', async () => {
		const result = await createBorrower({
			parameters: {
				mappingMode: 'jsonRecord',
				record: '{"name": "Jane Doe", "loanId": "loan-7", "bio": {"maritalStatus": "married"}}',
			},
		});
		expectInputError(
			sandbox,
			result,
			'Record (JSON): "bio" is not one of: addresses, emails, loanId, name, phones, role, taxId, type (item 0)',
		);
	});
});
