export default {
  'version.title': 'New version detected',
  'version.content': 'A new version of the console has been released. Refresh the page to load the latest version?',
  'version.reload': 'Refresh',
  'version.later': 'Later',
};
