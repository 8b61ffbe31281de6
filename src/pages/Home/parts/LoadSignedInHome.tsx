// The mini-program has the signed-in part of Home in its main package; H5 loads it on demand
// (LoadSignedInHome.h5.tsx).
export { default } from './SignedInHome'
