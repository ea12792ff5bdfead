"""The league's pure file writers (no Django): a division as TRF26 with team records and as the DSB
tournament report XML, over ``ratings.formats`` and fed by ``leagues.core``."""
