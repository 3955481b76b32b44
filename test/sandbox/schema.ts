/**
 * Field tables per resource, checked strictly (unknown fields rejected) so that a node sending a
 * misspelt or wrongly-typed field fails loudly in tests instead of silently.
 */
import { badRequest, isJsonObject, type JsonObject } from './types';

/** The 27 entity kinds of spec 2.3; nothing else is accepted inside `entitiesToSync`. */
export const ENTITY_KINDS: readonly string[] = [
	'appointments',
	'borrowers',
	'calls',
	'calendars',
	'calendarEvents',
	'customFields',
	'events',
	'lists',
	'loans',
	'notes',
	'offices',
	'properties',
	'smartLists',
	'tasks',
	'taskTemplates',
	'teams',
	'textMessages',
	'emailMessages',
	'appointmentOutcomes',
	'appointmentTypes',
	'stages',
	'emailThreads',
	'documents',
	'sources',
	'timeframes',
	'peopleRelationships',
	'ponds',
];

export type FieldType =
	| 'string'
	| 'number'
	| 'boolean'
	| 'object'
	| 'stringArray'
	| 'contactArray'
	| 'addressArray'
	| 'objectArray'
	| 'consent'
	| 'entities'
	| 'any';

export const PERSON_FIELDS: Record<string, FieldType> = {
	firstName: 'string',
	lastName: 'string',
	timezone: 'string',
	stage: 'string',
	stageId: 'string',
	assignedUserId: 'string',
	assignedPondId: 'string',
	officeId: 'string',
	timeframeId: 'string',
	emails: 'contactArray',
	phones: 'contactArray',
	addresses: 'addressArray',
	tags: 'stringArray',
	source: 'string',
	systemSource: 'string',
	averageBeds: 'number',
	averagePrice: 'number',
	birthday: 'string',
	rating: 'number',
	lastActivity: 'string',
	lastActivityType: 'string',
	contactTypes: 'stringArray',
	jobTitle: 'string',
	companyName: 'string',
	communicationsConsent: 'consent',
	sourceId: 'string',
};

export const BORROWER_FIELDS: Record<string, FieldType> = {
	emails: 'contactArray',
	name: 'string',
	type: 'string',
	phones: 'contactArray',
	addresses: 'addressArray',
	taxId: 'string',
	bio: 'object',
};

/** The create-borrower page's body: no bio; the loan the borrower is linked to and its role on it. */
export const BORROWER_CREATE_FIELDS: Record<string, FieldType> = {
	emails: 'contactArray',
	name: 'string',
	type: 'string',
	phones: 'contactArray',
	addresses: 'addressArray',
	taxId: 'string',
	loanId: 'string',
	role: 'string',
};

export const DOCUMENT_REQUIRED = [
	'name',
	'category',
	'status',
	'type',
	'fileUrl',
	'mimeType',
	'fileSignature',
	'folderId',
];
export const DOCUMENT_NOT_ACCEPTED = ['id', 'originalIds', 'original', 'serviceUpdated'];
export const DOCUMENT_FIELDS: Record<string, FieldType> = {
	...Object.fromEntries(DOCUMENT_REQUIRED.map((f) => [f, 'string' as FieldType])),
	fileSize: 'number',
	created: 'string',
	updated: 'string',
	receivedDate: 'string',
	requiresSignature: 'boolean',
	isSigned: 'boolean',
	signedBy: 'objectArray',
	signedDate: 'string',
	isActive: 'boolean',
	loanId: 'string',
	borrowerId: 'string',
	propertyId: 'string',
	transactionId: 'string',
	userId: 'string',
};

export const WEBHOOK_FIELDS: Record<string, FieldType> = {
	url: 'string',
	event: 'string',
	filters: 'object',
};

export const AUTHORIZE_FIELDS: Record<string, FieldType> = {
	appKey: 'string',
	plan: 'string',
	customParams: 'object',
	entitiesToSync: 'entities',
	returnURI: 'string',
};

export const CREATE_CREDENTIAL_FIELDS: Record<string, FieldType> = {
	appKey: 'string',
	userInputs: 'object',
	credentialKey: 'string',
	plan: 'string',
	entitiesToSync: 'entities',
};

export const UPDATE_CREDENTIAL_FIELDS: Record<string, FieldType> = { entitiesToSync: 'entities' };

const CONTACT_KEYS: Record<string, 'string' | 'boolean'> = {
	value: 'string',
	type: 'string',
	status: 'string',
	isPrimary: 'boolean',
};
const ADDRESS_KEYS = ['type', 'street', 'city', 'state', 'code', 'country'];
const CONSENT_KEYS = ['email', 'call', 'text', 'massEmail', 'postal', 'visit'];

function checkType(name: string, value: unknown, type: FieldType): void {
	const fail = (what: string): never => badRequest(`field '${name}' must be ${what}`);
	switch (type) {
		case 'any':
			return;
		case 'string':
			if (typeof value !== 'string') fail('a string');
			return;
		case 'number':
			if (typeof value !== 'number' || !Number.isFinite(value)) fail('a number');
			return;
		case 'boolean':
			if (typeof value !== 'boolean') fail('a boolean');
			return;
		case 'object':
			if (!isJsonObject(value)) fail('an object');
			return;
		case 'stringArray':
			if (!Array.isArray(value)) fail('an array of strings');
			(value as unknown[]).forEach((v, i) => {
				if (typeof v !== 'string') badRequest(`field '${name}[${i}]' must be a string`);
			});
			return;
		case 'objectArray':
			if (!Array.isArray(value)) fail('an array of objects');
			(value as unknown[]).forEach((v, i) => {
				if (!isJsonObject(v)) badRequest(`field '${name}[${i}]' must be an object`);
			});
			return;
		case 'contactArray':
			if (!Array.isArray(value)) fail('an array of {value, type, status, isPrimary} objects');
			(value as unknown[]).forEach((v, i) => {
				if (!isJsonObject(v)) badRequest(`field '${name}[${i}]' must be an object`);
				for (const [k, kv] of Object.entries(v as JsonObject)) {
					const want = CONTACT_KEYS[k];
					if (!want)
						badRequest(
							`field '${name}[${i}].${k}' is not a known field (value, type, status, isPrimary)`,
						);
					if (typeof kv !== want) badRequest(`field '${name}[${i}].${k}' must be a ${want}`);
				}
			});
			return;
		case 'addressArray':
			if (!Array.isArray(value)) fail('an array of address objects');
			(value as unknown[]).forEach((v, i) => {
				if (!isJsonObject(v)) badRequest(`field '${name}[${i}]' must be an object`);
				for (const [k, kv] of Object.entries(v as JsonObject)) {
					if (!ADDRESS_KEYS.includes(k)) {
						badRequest(
							`field '${name}[${i}].${k}' is not a known address field (${ADDRESS_KEYS.join(', ')})`,
						);
					}
					if (typeof kv !== 'string') badRequest(`field '${name}[${i}].${k}' must be a string`);
				}
			});
			return;
		case 'consent':
			if (!isJsonObject(value)) fail('an object of booleans');
			for (const [k, kv] of Object.entries(value as JsonObject)) {
				if (!CONSENT_KEYS.includes(k))
					badRequest(
						`field '${name}.${k}' is not a known consent flag (${CONSENT_KEYS.join(', ')})`,
					);
				if (typeof kv !== 'boolean') badRequest(`field '${name}.${k}' must be a boolean`);
			}
			return;
		case 'entities':
			if (!isJsonObject(value)) fail('an object of boolean entity flags');
			for (const [k, kv] of Object.entries(value as JsonObject)) {
				if (!ENTITY_KINDS.includes(k))
					badRequest(`field '${name}.${k}' is not a known entity kind`);
				if (typeof kv !== 'boolean') badRequest(`field '${name}.${k}' must be a boolean`);
			}
			return;
	}
}

export function validateFields(
	body: JsonObject,
	spec: Record<string, FieldType>,
	what: string,
): void {
	for (const [key, value] of Object.entries(body)) {
		const type = spec[key];
		if (!type) badRequest(`unknown field '${key}' for ${what}`);
		checkType(key, value, type);
	}
}

export function requireNonEmptyString(body: JsonObject, field: string): void {
	const v = body[field];
	if (v === undefined) badRequest(`field '${field}' is required`);
	if (typeof v !== 'string' || v.trim() === '')
		badRequest(`field '${field}' must be a non-empty string`);
}
