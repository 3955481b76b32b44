import { field, flag, json, number, text } from './entry';
import type { FieldSpec } from './types';

/** The body fields of a borrower and of a loan document (spec 2.5, 4.7). */
const losWord = (name: string, label: string, example: string) =>
	text(
		name,
		`${label} of the document as used by the connected loan origination system; free text`,
		{ required: true, placeholder: `e.g. ${example}` },
	);
const idOf = (name: string, what: string, refersTo?: string) =>
	text(name, `ID of the ${what} the document belongs to`, refersTo ? { refersTo } : {});
const contactList = (name: 'emails' | 'phones', what: string, example: string): FieldSpec =>
	field(
		name,
		name,
		`The borrower's ${what}, each with an optional type (e.g. ${example}), status and primary flag. The list sent replaces the borrower's ${name}.`,
	);

/** Update sends spec 2.4's writable fields, Create those of the service's create-borrower page. */
export const BORROWER_FIELDS: readonly FieldSpec[] = [
	field(
		'addresses',
		'addresses',
		"The borrower's postal addresses; every part is optional text passed through unchanged. The list sent replaces the borrower's addresses.",
	),
	json(
		'bio',
		'Biographical details as a JSON object, passed through unchanged, e.g. {"maritalStatus": "married"}',
		{ only: 'update' },
	),
	contactList('emails', 'email addresses', 'work'),
	text('loanId', 'ID of the loan the new borrower is linked to', {
		placeholder: 'e.g. loan-7',
		refersTo: 'loan',
		only: 'create',
	}),
	text('name', "The borrower's full name (or an entity's name)", { placeholder: 'e.g. Jane Doe' }),
	contactList('phones', 'phone numbers', 'mobile'),
	text(
		'role',
		"The borrower's role on the loan as the loan origination system names it (e.g. primary)",
		{ placeholder: 'e.g. primary', only: 'create' },
	),
	text('taxId', "The borrower's tax identification number, sent as entered", {
		placeholder: 'e.g. 123-45-6789',
	}),
	text('type', 'Kind of borrower as used by the connected system, e.g. individual or business', {
		placeholder: 'e.g. individual',
	}),
];

/** The first eight are required on create, in the specification's order; the rest by label. */
export const DOCUMENT_FIELDS: readonly FieldSpec[] = [
	text('name', 'Name of the document as shown in the loan file', {
		required: true,
		placeholder: 'e.g. W-2 2024.pdf',
	}),
	losWord('category', 'Category', 'income'),
	losWord('status', 'Status', 'received'),
	losWord('type', 'Type', 'W2'),
	text('fileUrl', 'Where the file can be downloaded from', {
		required: true,
		placeholder: 'e.g. https://files.example.com/w2-2024.pdf',
	}),
	text('mimeType', "The file's media type", {
		label: 'MIME Type',
		required: true,
		placeholder: 'e.g. application/pdf',
	}),
	text(
		'fileSignature',
		"A signature or checksum of the file's content (for example its SHA-256 hash), sent as entered",
		{ required: true, placeholder: 'e.g. 9f86d081884c7d65…' },
	),
	text('folderId', 'ID of the folder in the loan file that the document goes into', {
		required: true,
		placeholder: 'e.g. folder-42',
	}),
	idOf('borrowerId', 'borrower', 'borrower'),
	text(
		'created',
		'When the document was created, passed through unchanged (the format is up to the connected system)',
		{ placeholder: 'e.g. 2024-05-01T12:00:00Z' },
	),
	number('fileSize', 'Size of the file in bytes', { min: 0 }),
	flag('isActive', 'Whether the document is active (current) in the loan file', { initial: true }),
	flag('isSigned', 'Whether the document has been signed'),
	idOf('loanId', 'loan', 'loan'),
	text('propertyId', 'ID of the property the document is about'),
	text('receivedDate', 'When the document was received, passed through unchanged', {
		placeholder: 'e.g. 2024-05-01',
	}),
	flag('requiresSignature', 'Whether the document must be signed'),
	field(
		'jsonArray',
		'signedBy',
		'Who signed the document, as a JSON list of objects passed through unchanged, e.g. [{"name": "Jane Doe", "date": "2024-05-02"}]',
	),
	text('signedDate', 'When the document was signed, passed through unchanged', {
		placeholder: 'e.g. 2024-05-02',
	}),
	idOf('transactionId', 'transaction'),
	text('updated', 'When the document was last changed, passed through unchanged', {
		placeholder: 'e.g. 2024-05-01T12:00:00Z',
	}),
	text('userId', 'ID of the user (for example the loan officer) the document is assigned to'),
];
