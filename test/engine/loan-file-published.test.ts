/**
 * Borrower › Get Many, Get and Delete and Document › Get Many, Get and Delete (issue 30, the
 * service's public pages) through n8n's engine against the sandbox: the wire and the output items.
 */
import { operationRunner, useSandbox } from '../harness/fixtures';
import type { Sandbox } from '../sandbox/server';

let sandbox: Sandbox;
useSandbox((started) => (sandbox = started));
const run = (resource: string, operation: string) =>
	operationRunner(() => sandbox, resource, operation);

describe('loan file: published reads and deletes', () => {
	test('Borrower › Get Many, Get, Delete; a second Delete is a 404 error item', async () => {
		const list = await run(
			'borrower',
			'getAll',
		)({ parameters: { limit: 5, credentialId: 'cred-other' } });
		expect(list.error).toBeUndefined();
		expect(list.items.map((item) => item.json.id)).toEqual(['b-1']);
		expect(sandbox.requests[0]).toMatchObject({
			host: 'los',
			method: 'GET',
			url: '/api/borrowers?limit=5&offset=0',
		});
		expect(sandbox.requests[0].headers['x-service-credential-id']).toBe('cred-other');
		const one = await run('borrower', 'get')({ parameters: { borrowerId: 'b-1' } });
		expect(one.items[0].json).toMatchObject({ id: 'b-1', name: 'Sample Borrower' });
		expect(sandbox.requests[1]).toMatchObject({ method: 'GET', url: '/api/borrowers/b-1' });
		const deleted = await run('borrower', 'delete')({ parameters: { borrowerId: 'b-1' } });
		expect(deleted.items).toEqual([
			{ json: { id: 'b-1', deleted: true }, pairedItem: { item: 0 } },
		]);
		expect(sandbox.requests[2]).toMatchObject({
			method: 'DELETE',
			url: '/api/borrowers/b-1',
			status: 200,
			rawBody: '',
		});
		const again = await run(
			'borrower',
			'delete',
		)({ parameters: { borrowerId: 'b-1' }, onError: 'continueRegularOutput' });
		expect(String(again.items[0].json.error)).toMatch(
			/^Not found \(HTTP 404\).*borrower not found/,
		);
	});

	test('Document › Get and Delete of a created document, Get Many lists it', async () => {
		const created = await run(
			'document',
			'create',
		)({
			parameters: {
				name: 'Pay stub',
				category: 'income',
				status: 'received',
				type: 'pdf',
				fileUrl: 'https://files.example.test/p.pdf',
				mimeType: 'application/pdf',
				fileSignature: 'sha256:1',
				folderId: 'folder-1',
			},
		});
		expect(created.error).toBeUndefined();
		const list = await run('document', 'getAll')({ parameters: { limit: 5 } });
		expect(list.items.map((item) => item.json.id)).toEqual(['doc_1']);
		const one = await run('document', 'get')({ parameters: { documentId: 'doc_1' } });
		expect(one.items[0].json).toMatchObject({ id: 'doc_1', name: 'Pay stub' });
		expect(sandbox.requests[2]).toMatchObject({ method: 'GET', url: '/api/documents/doc_1' });
		const deleted = await run('document', 'delete')({ parameters: { documentId: 'doc_1' } });
		expect(deleted.items).toEqual([
			{ json: { id: 'doc_1', deleted: true }, pairedItem: { item: 0 } },
		]);
		expect(sandbox.requests[3]).toMatchObject({
			method: 'DELETE',
			url: '/api/documents/doc_1',
			status: 200,
		});
	});
});
