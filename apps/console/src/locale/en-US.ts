// Strings shared by the whole console; each feature has its own locale folder.
export default {
  'app.name': 'Mowerline Console',
  'request.error': 'Request Error',
  'request.networkError': 'Network Error',
  'request.aborted': 'Request aborted',
  'request.timeout': 'timeout of {ms}ms exceeded',
  'common.ok': 'OK',
  'common.cancel': 'Cancel',
  'common.loading': 'Loading…',
  'common.empty': 'No data',
  'common.expandRow': 'Show details',
  'common.collapseRow': 'Hide details',
  'common.selectRow': 'Select {name}',
};
