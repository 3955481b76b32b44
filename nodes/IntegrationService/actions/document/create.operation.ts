import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { inputError, parseJsonParameter, requireText, toBoolean, toNumber, optionalText } from '../../helpers/validation';
import { credentialIdOverrideFor } from '../common.descriptions';
import type { ServiceRun } from '../../transport';
import { serviceRequest } from '../../transport';

/** The eight fields the service requires (spec 2.5): parameter name = wire name. */
const REQUIRED_FIELDS: ReadonlyArray<{ name: string; label: string }> = [
	{ name: 'name', label: 'Name' },
	{ name: 'category', label: 'Category' },
	{ name: 'status', label: 'Status' },
	{ name: 'type', label: 'Type' },
	{ name: 'fileUrl', label: 'File URL' },
	{ name: 'mimeType', label: 'MIME Type' },
	{ name: 'fileSignature', label: 'File Signature' },
	{ name: 'folderId', label: 'Folder ID' },
];

const TEXT_FIELDS: ReadonlyArray<{ name: string; label: string }> = [
	{ name: 'created', label: 'Created' },
	{ name: 'updated', label: 'Updated' },
	{ name: 'receivedDate', label: 'Received Date' },
	{ name: 'signedDate', label: 'Signed Date' },
	{ name: 'loanId', label: 'Loan ID' },
	{ name: 'borrowerId', label: 'Borrower ID' },
	{ name: 'propertyId', label: 'Property ID' },
	{ name: 'transactionId', label: 'Transaction ID' },
	{ name: 'userId', label: 'User ID' },
];

const BOOLEAN_FIELDS: ReadonlyArray<{ name: string; label: string }> = [
	{ name: 'requiresSignature', label: 'Requires Signature' },
	{ name: 'isSigned', label: 'Is Signed' },
	{ name: 'isActive', label: 'Is Active' },
];

const properties: INodeProperties[] = [
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. W-2 2024.pdf',
		description: 'Name of the document as shown in the loan file',
	},
	{
		displayName: 'Category',
		name: 'category',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. income',
		description: 'Category of the document as used by the connected loan origination system; free text',
	},
	{
		displayName: 'Status',
		name: 'status',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. received',
		description: 'Status of the document as used by the connected loan origination system; free text',
	},
	{
		displayName: 'Type',
		name: 'type',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. W2',
		description: 'Type of the document as used by the connected loan origination system; free text',
	},
	{
		displayName: 'File URL',
		name: 'fileUrl',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. https://files.example.com/w2-2024.pdf',
		description: 'Where the file can be downloaded from',
	},
	{
		displayName: 'MIME Type',
		name: 'mimeType',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. application/pdf',
		description: "The file's media type",
	},
	{
		displayName: 'File Signature',
		name: 'fileSignature',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 9f86d081884c7d65…',
		description: "A signature or checksum of the file's content (for example its SHA-256 hash), sent as entered",
	},
	{
		displayName: 'Folder ID',
		name: 'folderId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. folder-42',
		description: 'ID of the folder in the loan file that the document goes into',
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'Borrower ID',
				name: 'borrowerId',
				type: 'string',
				default: '',
				description: 'ID of the borrower the document belongs to',
			},
			{
				displayName: 'Created',
				name: 'created',
				type: 'string',
				default: '',
				placeholder: 'e.g. 2024-05-01T12:00:00Z',
				description: 'When the document was created, passed through unchanged (the format is up to the connected system)',
			},
			{
				displayName: 'File Size',
				name: 'fileSize',
				type: 'number',
				typeOptions: { minValue: 0 },
				default: 0,
				description: 'Size of the file in bytes',
			},
			{
				displayName: 'Is Active',
				name: 'isActive',
				type: 'boolean',
				default: true,
				description: 'Whether the document is active (current) in the loan file',
			},
			{
				displayName: 'Is Signed',
				name: 'isSigned',
				type: 'boolean',
				default: false,
				description: 'Whether the document has been signed',
			},
			{
				displayName: 'Loan ID',
				name: 'loanId',
				type: 'string',
				default: '',
				description: 'ID of the loan the document belongs to',
			},
			{
				displayName: 'Property ID',
				name: 'propertyId',
				type: 'string',
				default: '',
				description: 'ID of the property the document is about',
			},
			{
				displayName: 'Received Date',
				name: 'receivedDate',
				type: 'string',
				default: '',
				placeholder: 'e.g. 2024-05-01',
				description: 'When the document was received, passed through unchanged',
			},
			{
				displayName: 'Requires Signature',
				name: 'requiresSignature',
				type: 'boolean',
				default: false,
				description: 'Whether the document must be signed',
			},
			{
				displayName: 'Signed By',
				name: 'signedBy',
				type: 'json',
				default: '[]',
				description:
					'Who signed the document, as a JSON list of objects passed through unchanged, e.g. [{"name": "Jane Doe", "date": "2024-05-02"}]',
			},
			{
				displayName: 'Signed Date',
				name: 'signedDate',
				type: 'string',
				default: '',
				placeholder: 'e.g. 2024-05-02',
				description: 'When the document was signed, passed through unchanged',
			},
			{
				displayName: 'Transaction ID',
				name: 'transactionId',
				type: 'string',
				default: '',
				description: 'ID of the transaction the document belongs to',
			},
			{
				displayName: 'Updated',
				name: 'updated',
				type: 'string',
				default: '',
				placeholder: 'e.g. 2024-05-01T12:00:00Z',
				description: 'When the document was last changed, passed through unchanged',
			},
			{
				displayName: 'User ID',
				name: 'userId',
				type: 'string',
				default: '',
				description: 'ID of the user (for example the loan officer) the document is assigned to',
			},
		],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['document'], operation: ['create'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	run: ServiceRun,
): Promise<IDataObject[]> {
	const body: IDataObject = {};
	for (const { name, label } of REQUIRED_FIELDS) {
		body[name] = requireText(this, itemIndex, label, this.getNodeParameter(name, itemIndex, ''));
	}

	const additional = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	for (const { name, label } of TEXT_FIELDS) {
		const value = optionalText(this, itemIndex, `Additional Fields › ${label}`, additional[name]);
		if (value !== undefined) body[name] = value;
	}
	for (const { name, label } of BOOLEAN_FIELDS) {
		if (additional[name] === undefined || additional[name] === '') continue;
		body[name] = toBoolean(this, itemIndex, `Additional Fields › ${label}`, additional[name]);
	}
	if (additional.fileSize !== undefined && additional.fileSize !== '') {
		const fileSize = toNumber(this, itemIndex, 'Additional Fields › File Size', additional.fileSize);
		if (fileSize < 0) throw inputError(this, itemIndex, 'Additional Fields › File Size', 'must not be negative');
		body.fileSize = fileSize;
	}
	if (additional.signedBy !== undefined && additional.signedBy !== '') {
		body.signedBy = parseJsonParameter(this, itemIndex, 'Additional Fields › Signed By', additional.signedBy, 'arrayOfObjects');
	}

	const credentialId = credentialIdOverrideFor(this, itemIndex);
	const created = await serviceRequest.call(
		this,
		itemIndex,
		{ method: 'POST', host: 'los', path: ['documents'], body, credentialId },
		run,
	);
	return [created];
}
