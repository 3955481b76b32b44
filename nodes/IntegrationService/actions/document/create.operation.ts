import type { INodeProperties } from 'n8n-workflow';

import { fieldGroup } from '../../helpers/fieldMapper';
import { optionalNumberProperty } from '../../helpers/fieldValue';
import { createOperation } from '../generic/body';
import { catalogueResource } from '../generic/entity';

/** The body fields: each parameter is named as its wire field; the first eight are required (spec 2.5, 4.7). */
const bodyProperties: INodeProperties[] = [
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
		description:
			'Category of the document as used by the connected loan origination system; free text',
	},
	{
		displayName: 'Status',
		name: 'status',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. received',
		description:
			'Status of the document as used by the connected loan origination system; free text',
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
		description:
			"A signature or checksum of the file's content (for example its SHA-256 hash), sent as entered",
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
	fieldGroup('additional', [
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
			description:
				'When the document was created, passed through unchanged (the format is up to the connected system)',
		},
		optionalNumberProperty({
			displayName: 'File Size',
			name: 'fileSize',
			typeOptions: { minValue: 0 },
			description: 'Size of the file in bytes',
		}),
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
	]),
];

/** POST {los}/api/documents (spec 4.7): the new document. */
export const { description, execute } = createOperation(catalogueResource('document'), {
	properties: bodyProperties,
	mappingModes: true,
});
