import {
	crmId,
	crmResource,
	field,
	fields,
	flag,
	json,
	number,
	objectList,
	simpleForm,
	text,
	textList,
} from './entry';
import type { MembersSpec } from './types';

/** The CRM account's own records (crm-endpoints.md). */
export const userResource = crmResource('users', {
	description: 'A user (agent) of the connected CRM',
	fields: {
		address: json(
			'The user\'s postal address as a JSON object with type, street, city, state, code and country, e.g. {"type": "work", "street": "1 Main St", "city": "Austin", "state": "TX", "code": "78701", "country": "US"}. Create only.',
			{ required: true, only: 'create' },
		),
		email: text("The user's email address", {
			required: true,
			placeholder: 'e.g. ann@example.com',
		}),
		firstName: text("The user's first name", { required: true }),
		lastName: text("The user's last name", { required: true }),
		participatingOfficeIds: textList(
			'IDs of the offices the user works in, one per entry. From an expression: a list of text, or one text with IDs separated by commas.',
			{ placeholder: 'Add Office ID' },
		),
		password: text(
			"The user's first password in the CRM. Create only; never shown in the output.",
			{ only: 'create', writeOnly: true },
		),
		phone: text("The user's phone number, as text passed through unchanged", { required: true }),
		role: text(
			"The user's role as the CRM names it (e.g. Agent, Broker), passed through unchanged",
			{ required: true },
		),
		status: text("The user's status as the CRM names it (e.g. Active), passed through unchanged", {
			required: true,
		}),
		timezone: text("The user's time zone (an IANA name such as America/Chicago is typical)"),
		type: text('Kind of user as the CRM names it, passed through unchanged. Create only.', {
			required: true,
			only: 'create',
		}),
		username: text("The user's sign-in name in the CRM", { required: true }),
	},
	simple: simpleForm('firstName', 'lastName', 'email', 'phone', 'role', 'status'),
});

export const teamResource = crmResource('teams', {
	description: 'A team of agents in the connected CRM',
	fields: {
		address: text("The team's street address"),
		city: text("The team's city"),
		email: text("The team's email address"),
		name: text("The team's name", { required: true }),
		phone: text("The team's phone number"),
		zip: text("The team's postal code"),
	},
	simple: simpleForm('name', 'email', 'phone'),
	upFront: ['email', 'phone'],
});

export const smartListResource = crmResource('smart-lists', {
	description: 'A saved search of people in the connected CRM',
	fields: {
		columns: objectList('Which columns the list shows', {
			placeholder: 'Add Column',
			items: fields({
				name: text("The column's name", { required: true }),
				enabled: flag('Whether the column is shown', { required: true }),
				width: number("The column's width"),
			}),
		}),
		conditions: field(
			'conditionGroups',
			'Who is in the list: conditions on a field of the person (e.g. stage is Lead), in groups. As one JSON value: a list of groups, each a list of conditions, e.g. [[{"fld": "stage", "opr": "is", "num": null, "unit": "", "val": "Lead"}]]',
			{
				required: true,
				placeholder: 'Add Condition',
				items: fields({
					fld: text('Name of the field the condition tests, as the CRM names it (e.g. stage)', {
						label: 'Field',
						required: true,
					}),
					opr: text('How the field is compared, as the CRM names it (e.g. is)', {
						label: 'Operator',
						required: true,
					}),
					num: text('A number the comparison uses, as text; empty is sent as null', {
						label: 'Number',
					}),
					unit: text('Unit of Number as the CRM names it (e.g. days); empty is sent as ""'),
					val: text('The value compared with (e.g. Lead)', { label: 'Value', required: true }),
				}),
			},
		),
		description: text('What the list is for'),
		isFub2: flag("Whether the list uses the CRM's newer list format", { label: 'Is FUB2' }),
		name: text("The list's name", { required: true }),
		shared: flag('Whether other users see the list'),
		sharedWith: json(
			'Who sees the list, as a JSON object with userIds and teamIds, e.g. {"userIds": ["u_1"], "teamIds": []}',
		),
		sortBy: text('Name of the column the list is sorted by'),
		userId: crmId('the user (agent) who owns the list', { refersTo: 'user' }),
	},
	simple: simpleForm('name', 'description', 'userId', 'shared'),
	upFront: ['description', 'userId'],
});

const [listPeopleField] = fields({
	personIds: textList(
		'IDs, in the connected CRM, of the people to add to or remove from the list, one per entry. From an expression: a list of text, or one text with IDs separated by commas.',
		{ required: true, placeholder: 'Add Person ID', refersTo: 'person' },
	),
});

const listPeople = (add: boolean): MembersSpec => ({
	label: add ? 'Add People' : 'Remove People',
	verb: add ? 'add people to' : 'remove people from',
	method: add ? 'POST' : 'DELETE',
	path: ['people'],
	output: add ? 'peopleAdded' : 'peopleRemoved',
	field: listPeopleField,
});

export const listResource = crmResource('lists', {
	description: 'A list of people in the connected CRM (people are added and removed by ID)',
	fields: {
		description: text('What the list is for'),
		isFavorite: flag('Whether the list is marked as a favorite'),
		name: text("The list's name"),
	},
	operations: ['addPeople', 'create', 'delete', 'get', 'getAll', 'removePeople', 'update'],
	members: { addPeople: listPeople(true), removePeople: listPeople(false) },
	upFront: ['name', 'description'],
	simple: simpleForm('name', 'description', 'isFavorite'),
});

/** The service shows no fields for custom fields: Create and Update take a JSON body. */
export const customFieldResource = crmResource('customFields', {
	description: 'A field the connected CRM adds to its records',
	jsonBody: true,
	readKeys: ['name', 'label', 'type'],
	simple: simpleForm('name', 'label', 'type'),
});

/** The CRM host's webhooks: a resource apart from the calendar's, so an ID never reaches the other host. */
export const crmWebhookResource = crmResource('webhooks', {
	description: 'A webhook registration on the CRM host: which CRM event is delivered to which URL',
	fields: {
		event: text(
			'The event delivered, named after an entity kind plus Created, Updated or Deleted, e.g. peopleCreated, notesUpdated. Any text is accepted and sent unchanged.',
			{ required: true, placeholder: 'e.g. peopleCreated' },
		),
		filters: json(
			'Conditions an event must meet to be delivered, as a JSON object passed through unchanged, e.g. {"stage": "Lead"}',
		),
		url: text('The address the service delivers events to', {
			required: true,
			placeholder: 'e.g. https://example.com/hooks/people',
		}),
	},
	value: 'crmWebhook',
	label: 'CRM Webhook',
	id: { label: 'CRM Webhook ID', name: 'crmWebhookId', placeholder: 'e.g. wh-1' },
	operations: ['create', 'delete', 'getAll', 'update'],
	section: 'administration',
	readKeys: ['status'],
	simple: simpleForm('event', 'url', 'status'),
});
