import { field, flag, json, losResource, number, primary, simpleForm, text } from './entry';

/** A borrower and a loan document (spec 2.5, 4.7). */
const losWord = (label: string, example: string) =>
	text(`${label} of the document as used by the connected loan origination system; free text`, {
		required: true,
		placeholder: `e.g. ${example}`,
	});
const idOf = (what: string, refersTo?: string) =>
	text(`ID of the ${what} the document belongs to`, refersTo ? { refersTo } : {});
const contactList = (name: 'emails' | 'phones', what: string, example: string) =>
	field(
		name,
		`The borrower's ${what}, each with an optional type (e.g. ${example}), status and primary flag. The list sent replaces the borrower's ${name}.`,
	);

/** Update sends spec 2.4's writable fields, Create those of the service's create-borrower page. */
export const borrowerResource = losResource('borrower', 'e.g. b-1', {
	description: 'A borrower',
	defaultOperation: 'update',
	fields: {
		addresses: field(
			'addresses',
			"The borrower's postal addresses; every part is optional text passed through unchanged. The list sent replaces the borrower's addresses.",
		),
		bio: json(
			'Biographical details as a JSON object, passed through unchanged, e.g. {"maritalStatus": "married"}',
			{ only: 'update' },
		),
		emails: contactList('emails', 'email addresses', 'work'),
		loanId: text('ID of the loan the new borrower is linked to', {
			placeholder: 'e.g. loan-7',
			refersTo: 'loan',
			only: 'create',
		}),
		name: text("The borrower's full name (or an entity's name)", { placeholder: 'e.g. Jane Doe' }),
		phones: contactList('phones', 'phone numbers', 'mobile'),
		role: text(
			"The borrower's role on the loan as the loan origination system names it (e.g. primary)",
			{ placeholder: 'e.g. primary', only: 'create' },
		),
		taxId: text("The borrower's tax identification number, sent as entered", {
			placeholder: 'e.g. 123-45-6789',
		}),
		type: text('Kind of borrower as used by the connected system, e.g. individual or business', {
			placeholder: 'e.g. individual',
		}),
	},
	upFront: ['name', 'emails', 'phones', 'loanId'],
	simple: simpleForm('name', 'type', primary('email', 'emails'), primary('phone', 'phones')),
});

export const documentResource = losResource('document', 'e.g. doc_1', {
	description: 'A loan document',
	defaultOperation: 'create',
	// The first eight are required on create, in the specification's order; the rest by label.
	fields: {
		name: text('Name of the document as shown in the loan file', {
			required: true,
			placeholder: 'e.g. W-2 2024.pdf',
		}),
		category: losWord('Category', 'income'),
		status: losWord('Status', 'received'),
		type: losWord('Type', 'W2'),
		fileUrl: text('Where the file can be downloaded from', {
			required: true,
			placeholder: 'e.g. https://files.example.com/w2-2024.pdf',
		}),
		mimeType: text("The file's media type", {
			label: 'MIME Type',
			required: true,
			placeholder: 'e.g. application/pdf',
		}),
		fileSignature: text(
			"A signature or checksum of the file's content (for example its SHA-256 hash), sent as entered",
			{ required: true, placeholder: 'e.g. 9f86d081884c7d65…' },
		),
		folderId: text('ID of the folder in the loan file that the document goes into', {
			required: true,
			placeholder: 'e.g. folder-42',
		}),
		borrowerId: idOf('borrower', 'borrower'),
		created: text(
			'When the document was created, passed through unchanged (the format is up to the connected system)',
			{ placeholder: 'e.g. 2024-05-01T12:00:00Z' },
		),
		fileSize: number('Size of the file in bytes', { min: 0 }),
		isActive: flag('Whether the document is active (current) in the loan file', { initial: true }),
		isSigned: flag('Whether the document has been signed'),
		loanId: idOf('loan', 'loan'),
		propertyId: text('ID of the property the document is about'),
		receivedDate: text('When the document was received, passed through unchanged', {
			placeholder: 'e.g. 2024-05-01',
		}),
		requiresSignature: flag('Whether the document must be signed'),
		signedBy: field(
			'jsonArray',
			'Who signed the document, as a JSON list of objects passed through unchanged, e.g. [{"name": "Jane Doe", "date": "2024-05-02"}]',
		),
		signedDate: text('When the document was signed, passed through unchanged', {
			placeholder: 'e.g. 2024-05-02',
		}),
		transactionId: idOf('transaction'),
		updated: text('When the document was last changed, passed through unchanged', {
			placeholder: 'e.g. 2024-05-01T12:00:00Z',
		}),
		userId: text('ID of the user (for example the loan officer) the document is assigned to'),
	},
	upFront: ['loanId', 'borrowerId'],
	simple: simpleForm('name', 'category', 'type', 'status', 'loanId', 'borrowerId'),
});
