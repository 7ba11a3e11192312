#pragma once
// Every kernel, once: its enumerator (Kernel::name), its type (in the family headers), and the
// force it evaluates. The Kernel enum (law.hpp) and the dispatch from a Kernel value to its type
// (with_kernel, contact_law.hpp) are generated from this list, so a new kernel is one line here
// (and its type in its family's header).
//
// X(name, type): a macro the user defines, applied to each kernel in turn.
// clang-format off
#define CHAINDEM_KERNELS(X)                                                                    \
  /* Elastic, viscous, hysteresis and piecewise families */                                    \
  X(linear_spring, kernels::LinearSpring)                /* F = K delta */                     \
  X(power_law, kernels::PowerLaw)                        /* F = K delta^n */                   \
  X(hertz, kernels::Hertz)                               /* F = K delta^(3/2) */               \
  X(linear_viscoelastic, kernels::LinearViscoelastic)    /* F = K delta + C v */               \
  X(viscous_power, kernels::ViscousPower)                /* F = K delta^n + chi delta^m v */   \
  X(hertz_viscous_quarter, kernels::HertzViscousQuarter) /* K delta^(3/2) + chi delta^(1/4) v */\
  X(hertz_mindlin, kernels::HertzMindlin)     /* K delta^(3/2) + 2 sqrt(5/6) |beta| sqrt(S_n m*) v */\
  X(hertz_hysteresis, kernels::HertzHysteresis)          /* K delta^(3/2) (1 + alpha v/v0) */  \
  X(linear_hysteresis, kernels::LinearHysteresis)        /* K delta (1 + alpha v/v0) */        \
  X(hertz_v0_root_damping, kernels::HertzV0RootDamping)  /* + alpha K delta^(1/2) v/v0 */      \
  X(jankowski_piecewise, kernels::JankowskiPiecewise)    /* dashpot while approaching only */  \
  X(lee_wang_transition, kernels::LeeWangTransition)     /* K delta^(3/2) + T(delta) D v */    \
  X(plastic_power, kernels::PlasticPower)     /* loading K delta^n, frozen power-law unloading */\
  /* Quasi-static elastoplastic laws: piecewise loading, frozen unloading branch */            \
  X(thornton_1997, kernels::Elastoplastic<kernels::ep::Thornton>)                              \
  X(stronge_2000, kernels::Elastoplastic<kernels::ep::Stronge>)                                \
  X(vu_quoc_zhang_2002, kernels::Elastoplastic<kernels::ep::VuQuocZhang>)                      \
  X(kogut_etsion_2002, kernels::Elastoplastic<kernels::ep::KogutEtsion>)                       \
  X(jackson_green_2005, kernels::Elastoplastic<kernels::ep::JacksonGreen>)                     \
  X(du_wang_2009, kernels::Elastoplastic<kernels::ep::DuWang>)                                 \
  X(brake_2012, kernels::Elastoplastic<kernels::ep::Brake>)                                    \
  X(burgoyne_daraio_2014, kernels::Elastoplastic<kernels::ep::BurgoyneDaraio>)                 \
  X(ma_liu_2015, kernels::Elastoplastic<kernels::ep::MaLiu>)                                   \
  /* Cylindrical line contacts, each times (1 + alpha v/v0) */                                 \
  X(power_hysteresis, kernels::PowerHysteresis)          /* K delta^n (1 + alpha v/v0) */      \
  X(line_contact_implicit, kernels::LineContactImplicit) /* delta = a F (ln(b/F) + k) */       \
  X(liu_line_contact, kernels::LiuLineContact)           /* q delta (delta/(dR + delta))^(1/2) */\
  X(persson_line_contact, kernels::PerssonLineContact)   /* Persson's u = delta/(2 dR + delta) */
// clang-format on
