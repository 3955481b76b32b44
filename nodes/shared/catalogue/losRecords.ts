import type { FieldSpec } from './types';

/** The body fields of a borrower and of a loan document (spec 2.5, 4.7). */
const text = (name: string, label: string, description: string, extra: Partial<FieldSpec> = {}) =>
	({ name, label, type: 'string', description, ...extra }) as FieldSpec;
const losWord = (name: string, label: string, example: string) =>
	text(
		name,
		label,
		`${label} of the document as used by the connected loan origination system; free text`,
		{ required: true, placeholder: `e.g. ${example}` },
	);
const idOf = (name: string, label: string, what: string, refersTo?: string) =>
	text(name, label, `ID of the ${what} the document belongs to`, refersTo ? { refersTo } : {});
const flag = (name: string, label: string, description: string, initial?: boolean) =>
	({ name, label, type: 'boolean', description, ...(initial ? { initial } : {}) }) as FieldSpec;
const contactList = (name: 'emails' | 'phones', what: string, example: string): FieldSpec => ({
	name,
	label: name === 'emails' ? 'Emails' : 'Phones',
	type: name,
	description: `The borrower's ${what}, each with an optional type (e.g. ${example}), status and primary flag. The list sent replaces the borrower's ${name}.`,
});

export const BORROWER_ROLE = text(
	'role',
	'Role',
	"The borrower's role on the loan as the loan origination system names it (e.g. primary)",
	{ placeholder: 'e.g. primary' },
);

/** Update sends spec 2.4's writable fields, Create those of the service's create-borrower page. */
export const BORROWER_FIELDS: readonly FieldSpec[] = [
	{
		name: 'addresses',
		label: 'Addresses',
		type: 'addresses',
		description:
			"The borrower's postal addresses; every part is optional text passed through unchanged. The list sent replaces the borrower's addresses.",
	},
	{
		name: 'bio',
		label: 'Bio',
		type: 'json',
		description:
			'Biographical details as a JSON object, passed through unchanged, e.g. {"maritalStatus": "married"}',
		only: 'update',
	},
	contactList('emails', 'email addresses', 'work'),
	{
		...text('loanId', 'Loan ID', 'ID of the loan the new borrower is linked to', {
			placeholder: 'e.g. loan-7',
			refersTo: 'loan',
		}),
		only: 'create',
	},
	text('name', 'Name', "The borrower's full name (or an entity's name)", {
		placeholder: 'e.g. Jane Doe',
	}),
	contactList('phones', 'phone numbers', 'mobile'),
	{ ...BORROWER_ROLE, only: 'create' },
	text('taxId', 'Tax ID', "The borrower's tax identification number, sent as entered", {
		placeholder: 'e.g. 123-45-6789',
	}),
	text(
		'type',
		'Type',
		'Kind of borrower as used by the connected system, e.g. individual or business',
		{ placeholder: 'e.g. individual' },
	),
];

/** The first eight are required on create, in the specification's order; the rest by label. */
export const DOCUMENT_FIELDS: readonly FieldSpec[] = [
	text('name', 'Name', 'Name of the document as shown in the loan file', {
		required: true,
		placeholder: 'e.g. W-2 2024.pdf',
	}),
	losWord('category', 'Category', 'income'),
	losWord('status', 'Status', 'received'),
	losWord('type', 'Type', 'W2'),
	text('fileUrl', 'File URL', 'Where the file can be downloaded from', {
		required: true,
		placeholder: 'e.g. https://files.example.com/w2-2024.pdf',
	}),
	text('mimeType', 'MIME Type', "The file's media type", {
		required: true,
		placeholder: 'e.g. application/pdf',
	}),
	text(
		'fileSignature',
		'File Signature',
		"A signature or checksum of the file's content (for example its SHA-256 hash), sent as entered",
		{ required: true, placeholder: 'e.g. 9f86d081884c7d65…' },
	),
	text('folderId', 'Folder ID', 'ID of the folder in the loan file that the document goes into', {
		required: true,
		placeholder: 'e.g. folder-42',
	}),
	idOf('borrowerId', 'Borrower ID', 'borrower', 'borrower'),
	text(
		'created',
		'Created',
		'When the document was created, passed through unchanged (the format is up to the connected system)',
		{ placeholder: 'e.g. 2024-05-01T12:00:00Z' },
	),
	{
		name: 'fileSize',
		label: 'File Size',
		type: 'number',
		min: 0,
		description: 'Size of the file in bytes',
	},
	flag('isActive', 'Is Active', 'Whether the document is active (current) in the loan file', true),
	flag('isSigned', 'Is Signed', 'Whether the document has been signed'),
	idOf('loanId', 'Loan ID', 'loan', 'loan'),
	text('propertyId', 'Property ID', 'ID of the property the document is about'),
	text(
		'receivedDate',
		'Received Date',
		'When the document was received, passed through unchanged',
		{ placeholder: 'e.g. 2024-05-01' },
	),
	flag('requiresSignature', 'Requires Signature', 'Whether the document must be signed'),
	{
		name: 'signedBy',
		label: 'Signed By',
		type: 'jsonArray',
		description:
			'Who signed the document, as a JSON list of objects passed through unchanged, e.g. [{"name": "Jane Doe", "date": "2024-05-02"}]',
	},
	text('signedDate', 'Signed Date', 'When the document was signed, passed through unchanged', {
		placeholder: 'e.g. 2024-05-02',
	}),
	idOf('transactionId', 'Transaction ID', 'transaction'),
	text('updated', 'Updated', 'When the document was last changed, passed through unchanged', {
		placeholder: 'e.g. 2024-05-01T12:00:00Z',
	}),
	text(
		'userId',
		'User ID',
		'ID of the user (for example the loan officer) the document is assigned to',
	),
];
