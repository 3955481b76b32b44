// Removes the run's n8n user folder made by user-folder.js.
module.exports = require('./user-folder').teardown;
