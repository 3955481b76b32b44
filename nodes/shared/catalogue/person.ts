import { CRUD, crmId, field, fields, number, primary, simpleForm, text, textList } from './entry';
import type { MembersSpec, ResourceSpec } from './types';

/** Every writable field of a person (spec 4.2), in the order of their labels. */
const personFields = fields({
	addresses: field(
		'addresses',
		"The person's postal addresses. Each address has optional text parts (type, street, city, state, postal code, country), each passed through unchanged; an address with no part set is an error.",
	),
	assignedPondId: crmId('the pond (shared pool of leads) the person is assigned to'),
	assignedUserId: crmId('the user (agent) the person is assigned to', { refersTo: 'user' }),
	averageBeds: number('Average number of bedrooms the person is looking for, as a number (e.g. 3)'),
	averagePrice: number(
		'Average property price the person is looking for, as a plain number without currency sign or thousands separators (e.g. 450000)',
	),
	birthday: text(
		"The person's birthday as text, passed through unchanged (the service does not state a format; a date such as 1985-04-12 is typical)",
		{ placeholder: 'e.g. 1985-04-12' },
	),
	communicationsConsent: field(
		'consent',
		'Whether the person consents to be contacted, per channel (call, email, mass email, postal, text, visit). Add a channel and switch it on (consents) or off (does not consent); channels you do not add are not sent.',
	),
	companyName: text('Name of the company the person works for'),
	contactTypes: textList(
		'Kinds of contact the person is (e.g. lead, client, vendor), one value per entry, each passed through unchanged. From an expression: a list of text, or one text with values separated by commas.',
		{ placeholder: 'Add Contact Type' },
	),
	emails: field(
		'emails',
		"The person's email addresses. Each entry needs the address; type (e.g. work), status and Is Primary are optional and passed through unchanged.",
	),
	firstName: text("The person's first (given) name, sent as entered", { placeholder: 'e.g. Ada' }),
	jobTitle: text("The person's job title"),
	lastActivity: field(
		'dateTime',
		'When the person was last active, as text, passed through unchanged (the service does not state a format; an ISO 8601 timestamp such as 2024-05-01T10:00:00Z is typical)',
		{ placeholder: 'e.g. 2024-05-01T10:00:00Z' },
	),
	lastActivityType: text(
		"Kind of the person's last activity (e.g. call, email, showing), passed through unchanged",
		{ placeholder: 'e.g. call' },
	),
	lastName: text("The person's last (family) name, sent as entered", {
		placeholder: 'e.g. Lovelace',
	}),
	officeId: crmId('the office the person belongs to'),
	phones: field(
		'phones',
		"The person's phone numbers. Each entry needs the number (sent as entered); type (e.g. mobile), status and Is Primary are optional and passed through unchanged.",
	),
	rating: number(
		'Rating of the person, as a number. The service accepts it on create but does not return it in the created person.',
	),
	source: text(
		'Where the person came from (lead source name, e.g. Website or Referral), passed through unchanged',
		{ placeholder: 'e.g. Website' },
	),
	sourceId: crmId('the lead source the person came from'),
	stage: text(
		"Name of the person's stage in the CRM pipeline (e.g. Lead), passed through unchanged",
		{ placeholder: 'e.g. Lead' },
	),
	stageId: crmId("the person's pipeline stage"),
	systemSource: text('Name of the system the person record comes from, passed through unchanged'),
	tags: textList(
		'Labels to attach to the person, one tag per entry. From an expression: a list of text, or one text with tags separated by commas.',
		{ placeholder: 'Add Tag' },
	),
	timeframeId: crmId("the person's buying or selling timeframe"),
	timezone: text(
		"The person's time zone as text, passed through unchanged (the service does not state a format; an IANA name such as America/Chicago is typical)",
		{ placeholder: 'e.g. America/Chicago' },
	),
});

const [personTagsField] = fields({
	tags: textList(
		'Tags to add to or remove from the person, one per entry. From an expression: a list of text, or one text with tags separated by commas.',
		{ required: true, placeholder: 'Add Tag' },
	),
});

const personTags = (add: boolean): MembersSpec => ({
	label: add ? 'Add Tags' : 'Remove Tags',
	verb: add ? 'add tags to' : 'remove tags from',
	method: 'POST',
	path: ['tags', add ? 'apply' : 'delete'],
	output: add ? 'tagsAdded' : 'tagsRemoved',
	field: personTagsField,
});

export const personResource: ResourceSpec = {
	value: 'person',
	label: 'Person',
	description: 'A contact in the connected CRM',
	section: 'main',
	host: 'crm',
	path: ['people'],
	listKey: 'people',
	id: { label: 'Person ID', name: 'personId', placeholder: 'e.g. p_42' },
	noun: { one: 'person', many: 'people' },
	operations: [...CRUD, 'addTags', 'removeTags', 'find', 'upsert'],
	defaultOperation: 'create',
	operationTexts: {
		addTags: 'Add tags to a person in the connected CRM; tags the person has stay',
		removeTags: 'Remove tags from a person in the connected CRM; other tags stay',
		find: 'Find people in the connected CRM by email, phone or name; the people list is read once per run',
		upsert:
			'Update the person with this email or phone in the connected CRM, or create one when there is none',
	},
	members: { addTags: personTags(true), removeTags: personTags(false) },
	fields: personFields,
	readKeys: ['name'],
	simple: simpleForm(
		'name',
		'firstName',
		'lastName',
		primary('email', 'emails'),
		primary('phone', 'phones'),
		'stage',
		'assignedUserId',
	),
	// A person is usually named: the names show on their own on Create.
	createFirst: ['firstName', 'lastName'],
	upFront: ['emails', 'phones', 'stage', 'assignedUserId'],
	additionalHint: 'Further fields of the new person. Only the fields you add are sent.',
};
