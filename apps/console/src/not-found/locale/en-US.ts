export default {
  'notFound.subTitle': 'Sorry, the page you are looking for does not exist.',
  'notFound.back': 'Back to home',
};
