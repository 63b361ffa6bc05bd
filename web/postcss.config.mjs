// Mantine's PostCSS preset: rem()/light-dark() helpers and the smaller-than/larger-than mixins in CSS modules.
export default {
  plugins: {
    'postcss-preset-mantine': {},
  },
};
