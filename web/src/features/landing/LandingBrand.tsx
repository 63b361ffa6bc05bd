// The landing's logo: landing_logo_src when configured, otherwise a mark and the app name (spec part 1 §3).
import { IconFeather } from '@tabler/icons-react';
import { Link } from 'react-router';
import classes from './landing.module.css';

interface LandingBrandProps {
  appName: string;
  logoSrc: string | null;
  homePath: string;
  label: string;
}

export function LandingBrand({ appName, logoSrc, homePath, label }: LandingBrandProps) {
  return (
    <Link to={homePath} className={classes.brand} aria-label={label}>
      {logoSrc ? (
        <img src={logoSrc} alt={appName} className={classes.logoImage} />
      ) : (
        <>
          <span className={classes.brandMark} aria-hidden="true">
            <IconFeather size={20} stroke={2} />
          </span>
          <span>{appName}</span>
        </>
      )}
    </Link>
  );
}
