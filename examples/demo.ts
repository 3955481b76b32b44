/**
 * The demo: starts the bundled sandbox server, then runs workflows through n8n's real execution engine
 * (n8n-core) that touch every resource of the Integration Service node, and prints what came back.
 * Run it with `npm run demo`.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runNode } from '../test/harness/engine';
import { sandboxCredential } from '../test/sandbox/credential';
import { startSandbox } from '../test/sandbox/server';
import { PUBLISHED_STEPS } from './demo-published';

interface Step {
	title: string;
	parameters: INodeParameters;
	/** Input items for the step; the previous step's output when a function. */
	items?: IDataObject[] | ((previous: IDataObject[]) => IDataObject[]);
}

const steps: Step[] = [
	{
		title: 'Person › Create (one person per incoming row)',
		items: [
			{ first: 'Ada', last: 'Lovelace', email: 'ada@example.com' },
			{ first: 'Grace', last: 'Hopper', email: 'grace@example.com' },
		],
		parameters: {
			resource: 'person',
			operation: 'create',
			firstName: '={{ $json.first }}',
			lastName: '={{ $json.last }}',
			additionalFields: {
				emails: { values: [{ value: '={{ $json.email }}', type: 'work', isPrimary: true }] },
				tags: ['demo'],
				communicationsConsent: { email: true, call: false },
			},
		},
	},
	{
		title: 'Person › Get Many (first 5, simplified)',
		parameters: {
			resource: 'person',
			operation: 'getAll',
			returnAll: false,
			limit: 5,
			simplify: true,
		},
	},
	{
		title: 'Person › Update (the first person becomes a client)',
		parameters: {
			resource: 'person',
			operation: 'update',
			personId: 'p_1',
			updateFields: { stage: 'Client', tags: ['demo'] },
		},
	},
	{
		title:
			'Person › Create or Update (a web-form lead and its resubmission: one person made, then updated)',
		items: [
			{ first: 'Lin', last: 'Lead', email: 'lin.lead@example.com' },
			{ first: 'Lin', last: 'Lead', email: ' LIN.LEAD@Example.com', phone: '+1 555 010 0199' },
		],
		parameters: {
			resource: 'person',
			operation: 'upsert',
			matchBy: 'emailThenPhone',
			firstName: '={{ $json.first }}',
			lastName: '={{ $json.last }}',
			additionalFields: {
				emailsJson: '={{ [{ value: $json.email }] }}',
				phonesJson: '={{ $json.phone ? [{ value: $json.phone }] : [] }}',
				tags: ['web-form'],
			},
			options: { mergeTags: true },
		},
	},
	{
		title: 'Person › Find (by email, in any case: the people list is read once for the run)',
		parameters: {
			resource: 'person',
			operation: 'find',
			findBy: 'email',
			email: 'ADA@example.com ',
			options: { output: 'oneItem' },
		},
	},
	{
		title: 'Person › Get Many with Filters (clients, first 3)',
		parameters: {
			resource: 'person',
			operation: 'getAll',
			limit: 3,
			filters: { conditions: [{ field: 'stage', operator: 'equals', value: 'client' }] },
		},
	},
	{
		title: 'Custom API Call (GET {los}/api/loans, first 3)',
		parameters: {
			resource: 'customApiCall',
			operation: 'send',
			host: 'los',
			method: 'GET',
			path: 'loans',
			limit: 3,
		},
	},
	{
		title: 'Authorization Link › Create',
		parameters: {
			resource: 'authorizationLink',
			operation: 'create',
			appKey: 'demo-crm',
			additionalFields: {
				plan: 'standard',
				returnURI: 'https://example.com/connected',
				entitiesToSync: { borrowers: true, documents: true, notes: false },
			},
		},
	},
	{
		title: 'Credential › Create',
		parameters: {
			resource: 'credential',
			operation: 'create',
			appKey: 'demo-crm',
			userInputs: '{"username": "demo", "apiKey": "demo-key"}',
			additionalFields: { plan: 'standard' },
		},
	},
	{
		title: 'Credential › Update (entities to sync of the credential just created)',
		items: (previous) => previous,
		parameters: {
			resource: 'credential',
			operation: 'update',
			credentialToUpdate: '={{ $json.id }}',
			entitiesToSync: { borrowers: true, calendarEvents: true, notes: false },
		},
	},
	{
		title: 'Borrower › Update',
		parameters: {
			resource: 'borrower',
			operation: 'update',
			borrowerId: 'b-1',
			updateFields: {
				name: 'Ada Lovelace',
				phones: { values: [{ value: '+1 555 0100', type: 'mobile', isPrimary: true }] },
				bio: '{"note": "prefers email"}',
			},
		},
	},
	{
		title: 'Document › Create',
		parameters: {
			resource: 'document',
			operation: 'create',
			name: 'Pay stub',
			category: 'income',
			status: 'received',
			type: 'pdf',
			fileUrl: 'https://files.example.com/paystub.pdf',
			mimeType: 'application/pdf',
			fileSignature: 'sha256:0f1e2d',
			folderId: 'folder-1',
			additionalFields: { borrowerId: 'b-1', fileSize: 48213, requiresSignature: false },
		},
	},
	{
		title: 'Document › Update (the document just created is signed)',
		items: (previous) => previous,
		parameters: {
			resource: 'document',
			operation: 'update',
			documentId: '={{ $json.id }}',
			updateFields: { status: 'signed', isSigned: true, signedDate: '2024-05-02' },
		},
	},
	{
		title: 'Borrower › Create (emails given whole as one value from the incoming row)',
		items: [{ name: 'Grace Hopper', emails: [{ value: 'grace@example.com', type: 'work' }] }],
		parameters: {
			resource: 'borrower',
			operation: 'create',
			additionalFields: {
				name: '={{ $json.name }}',
				emailsJson: '={{ $json.emails }}',
				type: 'individual',
			},
		},
	},
	{
		title: 'Webhook › Update',
		parameters: {
			resource: 'webhook',
			operation: 'update',
			webhookId: 'w-1',
			updateFields: {
				url: 'https://example.com/hooks/people',
				event: 'peopleCreated',
				filters: '{"stage": "Lead"}',
			},
		},
	},
	...PUBLISHED_STEPS,
];

async function main(): Promise<void> {
	const sandbox = await startSandbox({ people: 12 });
	console.log(
		`Sandbox running: CRM ${sandbox.urls.crm}, universal ${sandbox.urls.universal}, LOS ${sandbox.urls.los}, calendar ${sandbox.urls.calendar}\n`,
	);
	let previous: IDataObject[] = [];
	let failures = 0;
	try {
		for (const step of steps) {
			const items = typeof step.items === 'function' ? step.items(previous) : step.items;
			const result = await runNode({
				parameters: step.parameters,
				credentials: sandboxCredential(sandbox),
				items,
			});
			console.log(`── ${step.title}`);
			if (result.error) {
				failures++;
				console.log(`   failed: ${result.error.message}\n`);
				continue;
			}
			previous = result.items.map((item) => item.json);
			for (const item of result.items)
				console.log(JSON.stringify(item.json, null, 2).replace(/^/gm, '   '));
			console.log();
		}
		console.log(
			`${sandbox.requests.length} requests reached the sandbox; ${failures} step(s) failed.`,
		);
	} finally {
		await sandbox.close();
	}
	if (failures > 0) process.exitCode = 1;
}

void main();
