import { Carousel } from '@arco-design/web-react';
import { useT } from '../locale/i18n.ts';

// Illustrations live in public/banner as plain files: they load as images, not as sign-in JS.
const slides = [
  { key: 'vision', image: 'banner/vision.svg' },
  { key: 'mulching', image: 'banner/mulching.svg' },
  { key: 'battery', image: 'banner/battery.svg' },
];

/** The sign-in banner with the product's three slogans. */
export function LoginBanner() {
  const t = useT();
  return (
    <div className="login-banner">
      <Carousel className="login-carousel" animation="fade" autoPlay={{ interval: 5000, hoverToPause: true }} showArrow="never" indicatorType="line">
        {slides.map((slide) => (
          <div key={slide.key} className="login-slide" data-testid="login-slogan">
            <div className="login-slide-title">{t(`login.banner.${slide.key}.title`)}</div>
            <div className="login-slide-text">{t(`login.banner.${slide.key}.text`)}</div>
            <img className="login-slide-image" src={`${import.meta.env.BASE_URL}${slide.image}`} alt="" />
          </div>
        ))}
      </Carousel>
    </div>
  );
}
