/**
 * People that are hard to tell apart, as real CRMs hold them: one email in two cases, a placeholder
 * email shared by two leads, people without emails, phones written with and without country code
 * and punctuation, contact values as plain text or without type and isPrimary. Not in the default
 * seed (tests count it): added by `Sandbox.addPeople(id, LOOKALIKES)` or
 * `POST /__sandbox/people {"lookalikes": true}`, after the seeded people, as creates would add them.
 */
import type { JsonObject } from './types';

export const LOOKALIKES: readonly JsonObject[] = [
	{
		firstName: 'Ada',
		lastName: 'Lovelace',
		emails: [
			{ value: 'Ada.Lovelace@Example.TEST', type: 'home', status: 'Valid', isPrimary: true },
		],
		phones: [{ value: '+1 (555) 010-0001', type: 'mobile', status: 'Valid', isPrimary: true }],
		tags: ['buyer'],
	},
	{
		// The same email in another case, with spaces, as plain text; the same phone with dots.
		firstName: 'ADA',
		lastName: 'lovelace',
		emails: [' ada.lovelace@example.test '],
		phones: [{ value: '555.010.0001' }],
	},
	{
		firstName: 'Grace',
		lastName: 'Hopper',
		emails: [],
		phones: [{ value: '5550100002', type: 'work', isPrimary: false }],
	},
	{ firstName: 'Grace', lastName: 'Hopper', emails: [{ value: 'grace@navy.test' }] },
	{
		firstName: 'Alan',
		lastName: 'Turing',
		emails: [
			{ value: 'alan@bletchley.test', type: 'home', isPrimary: true },
			{ value: 'ALAN.T@Bletchley.test', type: 'work', isPrimary: false },
		],
		phones: [
			{ value: '44 20 7946 0000', type: 'work' },
			{ value: '+44 20 7946 0001 ext 12', type: 'home' },
		],
	},
	{
		firstName: 'Katherine',
		lastName: 'Johnson',
		emails: [{ value: 'kj@nasa.test', type: null, status: null, isPrimary: null }],
		phones: [{ value: '1-555-010-0003', type: 'home', isPrimary: true }],
	},
	{ firstName: 'Lead', lastName: 'One', emails: [{ value: 'noemail@example.test' }] },
	{ firstName: 'Lead', lastName: 'Two', emails: [{ value: 'NoEmail@example.test' }] },
	// Only a `name`, as a connector that fills no first and last name answers.
	{ name: 'Mary Jackson', phones: ['(555) 010-0004'] },
];
