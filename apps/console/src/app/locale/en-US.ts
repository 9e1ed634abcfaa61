export default {
  'app.footer': 'Mowerline robotic mower cloud platform © {year}',
  'app.error.title': 'Something went wrong',
  'app.error.content': 'The page failed to load or display. The console may have just been updated: refresh the page and try again.',
  'app.error.reload': 'Refresh the page',
};
